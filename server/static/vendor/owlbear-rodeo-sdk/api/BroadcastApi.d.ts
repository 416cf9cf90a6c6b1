import MessageBus from "../messages/MessageBus";
declare class BroadcastApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    sendMessage(channel: string, data: unknown, options?: {
        destination: "REMOTE" | "LOCAL" | "ALL";
    }): Promise<void>;
    onMessage(channel: string, callback: (event: {
        data: unknown;
        connectionId: string;
    }) => void): () => void;
}
export default BroadcastApi;
