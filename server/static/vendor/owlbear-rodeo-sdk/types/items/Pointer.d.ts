import { Item } from "./Item";
export interface Pointer extends Item {
    type: "POINTER";
    color: string;
    radius: number;
}
export declare function isPointer(item: Item): item is Pointer;
