import MessageBus from "../messages/MessageBus";
declare class NotificationApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    show(message: string, variant?: "DEFAULT" | "ERROR" | "INFO" | "SUCCESS" | "WARNING"): Promise<string>;
    close(id: string): Promise<void>;
}
export default NotificationApi;
