import MessageBus from "../messages/MessageBus";
import { Modal } from "../types/Modal";
declare class ModalApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    open(modal: Modal): Promise<void>;
    close(id: string): Promise<void>;
}
export default ModalApi;
