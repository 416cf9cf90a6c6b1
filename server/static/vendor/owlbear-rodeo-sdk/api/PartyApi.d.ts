import MessageBus from "../messages/MessageBus";
import { Player } from "../types";
declare class PartyApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    getPlayers(): Promise<Player[]>;
    onChange(callback: (players: Player[]) => void): () => void;
}
export default PartyApi;
