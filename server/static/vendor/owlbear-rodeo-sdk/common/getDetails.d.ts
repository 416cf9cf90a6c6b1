export declare function getDetails(): {
    origin: string;
    roomId: string;
};
