import { Draft } from "immer";
export declare type StopInteraction = () => void;
export declare type UpdateInteraction<State> = (draft: Draft<State>) => void;
export declare type DispatchInteractionUpdate<State> = (update: UpdateInteraction<State>) => State;
export declare type InteractionManager<State> = [
    DispatchInteractionUpdate<State>,
    StopInteraction
];
