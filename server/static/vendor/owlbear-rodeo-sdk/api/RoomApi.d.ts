import MessageBus from "../messages/MessageBus";
import { Metadata } from "../types/Metadata";
import { Permission } from "../types/Permission";
declare class RoomApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    get id(): string;
    getPermissions(): Promise<Permission[]>;
    getMetadata(): Promise<Metadata>;
    setMetadata(update: Partial<Metadata>): Promise<void>;
    onMetadataChange(callback: (metadata: Metadata) => void): () => void;
    onPermissionsChange(callback: (permissions: Permission[]) => void): () => void;
}
export default RoomApi;
