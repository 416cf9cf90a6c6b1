import PlayerApi from "../api/PlayerApi";
import { Path, PathCommand, PathStyle } from "../types/items/Path";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class PathBuilder extends GenericItemBuilder<PathBuilder> {
    private _commands;
    private _fillRule;
    private _style;
    constructor(player: PlayerApi);
    commands(commands: PathCommand[]): PathBuilder;
    fillRule(fillRule: string): PathBuilder;
    style(style: PathStyle): PathBuilder;
    fillColor(fillColor: string): PathBuilder;
    fillOpacity(fillOpacity: number): PathBuilder;
    strokeColor(strokeColor: string): PathBuilder;
    strokeOpacity(strokeOpacity: number): PathBuilder;
    strokeWidth(strokeWidth: number): PathBuilder;
    strokeDash(strokeDash: number[]): PathBuilder;
    build(): Path;
}
