import { TextContent } from "./TextContent";
import { Item } from "./Item";
export interface Text extends Item {
    type: "TEXT";
    text: TextContent;
}
export declare function isText(item: Item): item is Text;
