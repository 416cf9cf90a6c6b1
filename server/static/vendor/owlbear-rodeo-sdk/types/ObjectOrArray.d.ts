export declare type ObjectOrArray = AnyObject | AnyArray;
export declare type AnyObject = {
    [key: string]: any;
};
export declare type AnyArray = Array<any>;
