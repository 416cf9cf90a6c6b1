export function isWall(item) {
    return item.type === "WALL";
}
