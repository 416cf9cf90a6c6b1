import { Vector2 } from "./Vector2";
export interface ViewportTransform {
    position: Vector2;
    scale: number;
}
