import PlayerApi from "../api/PlayerApi";
import { Curve, CurveStyle } from "../types/items/Curve";
import { Vector2 } from "../types/Vector2";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class CurveBuilder extends GenericItemBuilder<CurveBuilder> {
    private _points;
    private _style;
    constructor(player: PlayerApi);
    points(points: Vector2[]): CurveBuilder;
    style(style: CurveStyle): CurveBuilder;
    fillColor(fillColor: string): CurveBuilder;
    fillOpacity(fillOpacity: number): CurveBuilder;
    strokeColor(strokeColor: string): CurveBuilder;
    strokeOpacity(strokeOpacity: number): CurveBuilder;
    strokeWidth(strokeWidth: number): CurveBuilder;
    strokeDash(strokeDash: number[]): CurveBuilder;
    tension(tension: number): CurveBuilder;
    closed(closed: boolean): CurveBuilder;
    build(): Curve;
}
