export declare type Metadata = Record<string, unknown>;
