import MessageBus from "../../messages/MessageBus";
declare class SceneHistoryApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    undo(): Promise<void>;
    redo(): Promise<void>;
    canUndo(): Promise<boolean>;
    canRedo(): Promise<boolean>;
}
export default SceneHistoryApi;
