import MessageBus from "../messages/MessageBus";
import { ContextMenuItem } from "../types/ContextMenu";
declare class ContextMenuApi {
    private messageBus;
    private contextMenus;
    constructor(messageBus: MessageBus);
    private handleClick;
    create(contextMenu: ContextMenuItem): Promise<void>;
    remove(id: string): Promise<void>;
}
export default ContextMenuApi;
