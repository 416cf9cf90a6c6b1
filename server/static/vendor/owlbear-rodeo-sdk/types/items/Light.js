export function isLight(item) {
    return item.type === "LIGHT";
}
