export function isBillboard(item) {
    return item.type === "BILLBOARD";
}
