export function isText(item) {
    return item.type === "TEXT";
}
