import PlayerApi from "../api/PlayerApi";
import { Vector2 } from "../types/Vector2";
import { Wall } from "../types/items/Wall";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class WallBuilder extends GenericItemBuilder<WallBuilder> {
    private _points;
    private _doubleSided;
    private _blocking;
    constructor(player: PlayerApi);
    points(points: Vector2[]): WallBuilder;
    doubleSided(doubleSided: boolean): WallBuilder;
    blocking(blocking: boolean): WallBuilder;
    build(): Wall;
}
