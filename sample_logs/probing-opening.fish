Title: An opening of probing asks: eight asks, eight books, eight noes
Rules: literature
Deck: standard
Teams: Anna Ben Cara Gus vs Dev Eli Fay Hal
Hand Anna: 3S 7S 9H 4D KC AC

1. Anna asks Dev for 2S: no
2. Dev asks Ben for 10H: no
3. Ben asks Eli for 4C: no
4. Eli asks Cara for QS: no
5. Cara asks Fay for 6D: no
6. Fay asks Gus for AC: no
7. Gus asks Hal for 2H: no
8. Hal asks Anna for 10D: no
