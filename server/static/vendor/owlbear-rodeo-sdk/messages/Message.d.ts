export interface Message {
    id: string;
    data: unknown;
}
export declare function isMessage(message: any): message is Message;
