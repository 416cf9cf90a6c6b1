export function isImage(item) {
    return item.type === "IMAGE";
}
