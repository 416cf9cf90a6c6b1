export function isMessage(message) {
    return typeof message.id === "string";
}
