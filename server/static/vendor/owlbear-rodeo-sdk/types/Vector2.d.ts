export interface Vector2 {
    x: number;
    y: number;
}
