export function isCurve(item) {
    return item.type === "CURVE";
}
