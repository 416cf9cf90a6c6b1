import MessageBus from "../messages/MessageBus";
import { ImageAssetType, ImageDownload, ImageUpload, SceneDownload, SceneUpload } from "../types";
declare class AssetsApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    uploadImages(images: ImageUpload[], typeHint?: ImageAssetType): Promise<void>;
    uploadScenes(scenes: SceneUpload[], disableShowScenes?: boolean): Promise<void>;
    downloadImages(multiple?: boolean, defaultSearch?: string, typeHint?: ImageAssetType): Promise<ImageDownload[]>;
    downloadScenes(multiple?: boolean, defaultSearch?: string): Promise<SceneDownload[]>;
}
export default AssetsApi;
