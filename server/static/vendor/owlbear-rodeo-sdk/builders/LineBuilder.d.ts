import PlayerApi from "../api/PlayerApi";
import { Line, LineStyle } from "../types/items/Line";
import { Vector2 } from "../types/Vector2";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class LineBuilder extends GenericItemBuilder<LineBuilder> {
    private _style;
    private _startPosition;
    private _endPosition;
    constructor(player: PlayerApi);
    style(style: LineStyle): LineBuilder;
    strokeColor(strokeColor: string): LineBuilder;
    strokeOpacity(strokeOpacity: number): LineBuilder;
    strokeWidth(strokeWidth: number): LineBuilder;
    strokeDash(strokeDash: number[]): LineBuilder;
    startPosition(startPosition: Vector2): LineBuilder;
    endPosition(endPosition: Vector2): LineBuilder;
    build(): Line;
}
