export declare type Matrix = [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number
];
