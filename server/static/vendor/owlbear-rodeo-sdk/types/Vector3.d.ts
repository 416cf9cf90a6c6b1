export interface Vector3 {
    x: number;
    y: number;
    z: number;
}
