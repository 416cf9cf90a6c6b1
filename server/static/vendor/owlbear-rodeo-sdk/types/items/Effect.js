export function isEffect(item) {
    return item.type === "EFFECT";
}
