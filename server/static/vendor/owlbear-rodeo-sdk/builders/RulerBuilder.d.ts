import PlayerApi from "../api/PlayerApi";
import { Ruler, RulerVariant } from "../types/items/Ruler";
import { Vector2 } from "../types/Vector2";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class RulerBuilder extends GenericItemBuilder<RulerBuilder> {
    private _startPosition;
    private _endPosition;
    private _measurement;
    private _style;
    constructor(player: PlayerApi);
    startPosition(startPosition: Vector2): RulerBuilder;
    endPosition(endPosition: Vector2): RulerBuilder;
    measurement(measurement: string): RulerBuilder;
    variant(variant: RulerVariant): RulerBuilder;
    build(): Ruler;
}
