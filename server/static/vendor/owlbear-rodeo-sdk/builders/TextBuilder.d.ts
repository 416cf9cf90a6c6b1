import { RichText, TextContent, TextContentType, TextSize } from "../types/items/TextContent";
import { Text } from "../types/items/Text";
import { GenericItemBuilder } from "./GenericItemBuilder";
import PlayerApi from "../api/PlayerApi";
export declare class TextBuilder extends GenericItemBuilder<TextBuilder> {
    private _text;
    constructor(player: PlayerApi);
    text(text: TextContent): TextBuilder;
    width(width: TextSize): TextBuilder;
    height(height: TextSize): TextBuilder;
    richText(richText: RichText): TextBuilder;
    plainText(plainText: string): TextBuilder;
    textType(textType: TextContentType): TextBuilder;
    padding(padding: number): TextBuilder;
    fontFamily(fontFamily: string): TextBuilder;
    fontSize(fontSize: number): TextBuilder;
    fontWeight(fontWeight: number): TextBuilder;
    textAlign(textAlign: "LEFT" | "CENTER" | "RIGHT"): TextBuilder;
    textAlignVertical(textAlignVertical: "BOTTOM" | "MIDDLE" | "TOP"): TextBuilder;
    fillColor(fillColor: string): TextBuilder;
    fillOpacity(fillOpacity: number): TextBuilder;
    strokeColor(strokeColor: string): TextBuilder;
    strokeOpacity(strokeOpacity: number): TextBuilder;
    strokeWidth(strokeWidth: number): TextBuilder;
    lineHeight(lineHeight: number): TextBuilder;
    build(): Text;
}
