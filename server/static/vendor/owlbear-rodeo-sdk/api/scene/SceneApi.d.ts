import MessageBus from "../../messages/MessageBus";
import { Metadata } from "../../types";
import SceneFogApi from "./SceneFogApi";
import SceneGridApi from "./SceneGridApi";
import SceneHistoryApi from "./SceneHistoryApi";
import SceneItemsApi from "./SceneItemsApi";
import SceneLocalApi from "./SceneLocalApi";
declare class SceneApi {
    private messageBus;
    grid: SceneGridApi;
    fog: SceneFogApi;
    history: SceneHistoryApi;
    items: SceneItemsApi;
    local: SceneLocalApi;
    constructor(messageBus: MessageBus);
    isReady(): Promise<boolean>;
    onReadyChange(callback: (ready: boolean) => void): () => void;
    getMetadata(): Promise<Metadata>;
    setMetadata(update: Metadata): Promise<void>;
    onMetadataChange(callback: (metadata: Metadata) => void): () => void;
}
export default SceneApi;
