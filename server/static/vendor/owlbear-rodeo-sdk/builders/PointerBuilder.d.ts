import PlayerApi from "../api/PlayerApi";
import { Pointer } from "../types/items/Pointer";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class PointerBuilder extends GenericItemBuilder<PointerBuilder> {
    private _color;
    private _radius;
    constructor(player: PlayerApi);
    color(color: string): PointerBuilder;
    radius(radius: number): PointerBuilder;
    build(): Pointer;
}
