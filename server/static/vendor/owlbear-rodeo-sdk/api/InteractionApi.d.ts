import MessageBus from "../messages/MessageBus";
import { Item } from "../types";
import { InteractionManager } from "../types/Interaction";
declare class InteractionApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    startItemInteraction<S extends Item | Item[]>(baseState: S): Promise<InteractionManager<S>>;
}
export default InteractionApi;
