export declare function roundTo(x: number, to: number): number;
export declare function floorTo(x: number, to: number): number;
export declare function toRadians(angle: number): number;
export declare function toDegrees(angle: number): number;
export declare function lerp(from: number, to: number, alpha: number): number;
