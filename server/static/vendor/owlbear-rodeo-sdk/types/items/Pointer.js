export function isPointer(item) {
    return item.type === "POINTER";
}
