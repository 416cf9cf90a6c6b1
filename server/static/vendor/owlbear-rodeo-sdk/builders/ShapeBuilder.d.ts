import PlayerApi from "../api/PlayerApi";
import { Shape, ShapeStyle, ShapeType } from "../types/items/Shape";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class ShapeBuilder extends GenericItemBuilder<ShapeBuilder> {
    private _width;
    private _height;
    private _shapeType;
    private _style;
    constructor(player: PlayerApi);
    width(width: number): ShapeBuilder;
    height(height: number): ShapeBuilder;
    shapeType(shapeType: ShapeType): ShapeBuilder;
    style(style: ShapeStyle): ShapeBuilder;
    fillColor(fillColor: string): ShapeBuilder;
    fillOpacity(fillOpacity: number): ShapeBuilder;
    strokeColor(strokeColor: string): ShapeBuilder;
    strokeOpacity(strokeOpacity: number): ShapeBuilder;
    strokeWidth(strokeWidth: number): ShapeBuilder;
    strokeDash(strokeDash: number[]): ShapeBuilder;
    build(): Shape;
}
