import PlayerApi from "../api/PlayerApi";
import { BlendMode, Effect, EffectType, Uniform } from "../types/items/Effect";
import { GenericItemBuilder } from "./GenericItemBuilder";
export declare class EffectBuilder extends GenericItemBuilder<EffectBuilder> {
    private _width;
    private _height;
    private _sksl;
    private _effectType;
    private _uniforms;
    private _blendMode;
    constructor(player: PlayerApi);
    width(width: number): EffectBuilder;
    height(height: number): EffectBuilder;
    sksl(sksl: string): EffectBuilder;
    effectType(effectType: EffectType): EffectBuilder;
    uniforms(uniforms: Uniform[]): EffectBuilder;
    blendMode(blendMode: BlendMode): EffectBuilder;
    build(): Effect;
}
