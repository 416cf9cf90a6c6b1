import PlayerApi from "../api/PlayerApi";
import { Light, LightType } from "../types/items/Light";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class LightBuilder extends GenericItemBuilder<LightBuilder> {
    private _sourceRadius;
    private _attenuationRadius;
    private _falloff;
    private _innerAngle;
    private _outerAngle;
    private _lightType;
    constructor(player: PlayerApi);
    sourceRadius(sourceRadius: number): LightBuilder;
    attenuationRadius(attenuationRadius: number): LightBuilder;
    falloff(falloff: number): LightBuilder;
    innerAngle(innerAngle: number): LightBuilder;
    outerAngle(outerAngle: number): LightBuilder;
    lightType(lightType: LightType): LightBuilder;
    build(): Light;
}
