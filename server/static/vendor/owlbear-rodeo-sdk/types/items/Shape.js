export function isShape(item) {
    return item.type === "SHAPE";
}
