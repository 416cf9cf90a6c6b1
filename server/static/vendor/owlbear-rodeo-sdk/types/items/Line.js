export function isLine(item) {
    return item.type === "LINE";
}
