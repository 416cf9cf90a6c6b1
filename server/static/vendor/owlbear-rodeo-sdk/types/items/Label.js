export function isLabel(item) {
    return item.type === "LABEL";
}
