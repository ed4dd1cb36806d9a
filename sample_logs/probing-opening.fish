Title: An opening of probing asks: eight asks, eight books, eight noes
Rules: literature
Deck: standard
Teams: Anna Ben Cara Gus vs Dev Eli Fay Hal
Hand Anna: 3S 7S 9H 4D KC AC
Hand Dev: 4S 10S 6H JH 6D 9C
Hand Ben: 6S QS KH KD AD 2C
Hand Eli: 2S JS QH 3D 10D QD
Hand Cara: AS 2H 3H 2D 5D 4C
Hand Fay: KS 7H 7D 6C 10C JC
Hand Gus: 9S 4H 5H 9D 7C QC
Hand Hal: 5S 10H AH JD 3C 5C

1. Anna asks Dev for 2S: no  # Anna shows a low spade; neither she nor Dev has 2S
2. Dev asks Ben for 10H: no
3. Ben asks Eli for 4C: no
4. Eli asks Cara for QS: no
5. Cara asks Fay for 6D: no
6. Fay asks Gus for AC: no
7. Gus asks Hal for 2H: no
8. Hal asks Anna for 10D: no  # eight books probed and nothing has moved: the deal is still wide open
