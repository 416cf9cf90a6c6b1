import { Item } from "./Item";
export declare type LightType = "PRIMARY" | "SECONDARY" | "AUXILIARY";
export interface Light extends Item {
    type: "LIGHT";
    attenuationRadius: number;
    sourceRadius: number;
    falloff: number;
    innerAngle: number;
    outerAngle: number;
    lightType: LightType;
}
export declare function isLight(item: Item): item is Light;
