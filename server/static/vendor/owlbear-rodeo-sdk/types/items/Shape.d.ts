import { Item } from "./Item";
export interface ShapeStyle {
    fillColor: string;
    fillOpacity: number;
    strokeColor: string;
    strokeOpacity: number;
    strokeWidth: number;
    strokeDash: number[];
}
export declare type ShapeType = "RECTANGLE" | "CIRCLE" | "TRIANGLE" | "HEXAGON";
export interface Shape extends Item {
    type: "SHAPE";
    width: number;
    height: number;
    shapeType: ShapeType;
    style: ShapeStyle;
}
export declare function isShape(item: Item): item is Shape;
