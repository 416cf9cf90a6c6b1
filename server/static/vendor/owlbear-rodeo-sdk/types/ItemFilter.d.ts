import { Item } from "./items/Item";
declare type ItemFilterArray = string[];
declare type ItemTypeFilterFunction<ItemType extends Item> = (item: Item) => item is ItemType;
declare type ItemFilterFunction = (item: Item) => boolean;
export declare type ItemFilter<ItemType extends Item> = ItemFilterArray | ItemTypeFilterFunction<ItemType> | ItemFilterFunction;
export {};
