import { GridColor, GridLineType, GridMeasurement, GridType, ImageUpload, Item, SceneUpload } from "../types";
export declare class SceneUploadBuilder {
    private _upload;
    constructor();
    name(name: string): SceneUploadBuilder;
    fogFilled(filled: boolean): SceneUploadBuilder;
    fogColor(color: string): SceneUploadBuilder;
    fogStrokeWidth(width: number): SceneUploadBuilder;
    gridScale(scale: string): SceneUploadBuilder;
    gridColor(color: GridColor): SceneUploadBuilder;
    gridOpacity(opacity: number): SceneUploadBuilder;
    gridLineType(lineType: GridLineType): SceneUploadBuilder;
    gridMeasurement(measurement: GridMeasurement): SceneUploadBuilder;
    gridType(type: GridType): SceneUploadBuilder;
    items(items: Item[]): SceneUploadBuilder;
    baseMap(baseMap: ImageUpload): SceneUploadBuilder;
    thumbnail(thumbnail: File | Blob): SceneUploadBuilder;
    build(): SceneUpload;
}
