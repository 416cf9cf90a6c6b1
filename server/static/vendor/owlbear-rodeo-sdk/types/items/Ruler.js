export function isRuler(item) {
    return item.type === "RULER";
}
