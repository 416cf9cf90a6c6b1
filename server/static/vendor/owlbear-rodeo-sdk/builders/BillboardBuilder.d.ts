import PlayerApi from "../api/PlayerApi";
import { Billboard, ImageContent, ImageGrid } from "../types";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class BillboardBuilder extends GenericItemBuilder<BillboardBuilder> {
    private _image;
    private _grid;
    private _style;
    constructor(player: PlayerApi, image: ImageContent, grid: ImageGrid);
    maxViewScale(maxViewScale: number): BillboardBuilder;
    minViewScale(minViewScale: number): BillboardBuilder;
    build(): Billboard;
}
