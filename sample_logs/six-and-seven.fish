Title: The six and the seven: two failed asks place the last two cards
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2C 3C 2S 9S 2H 9H 2D 9D
Hand Dev: 4C 3S 10S 3H 10H 3D 10D 9C
Hand Ben: 6C 4S JS 4H JH 4D JD 10C
Hand Eli: 5C 5S QS 5H QH 5D QD JC
Hand Cara: 7C 6S KS 6H KH 6D KD QC
Hand Fay: 7S AS 7H AH 7D AD KC AC

1. Anna asks Dev for 4C: yes
2. Anna asks Eli for 5C: yes  # Anna now holds 2C 3C 4C 5C; the 6 and the 7 are somewhere else
3. Anna asks Fay for 6C: no
4. Fay asks Cara for 2S: no
5. Cara asks Dev for 6C: no  # Cara holds a low club that is not 6C
6. Dev asks Ben for 9H: no
7. Ben asks Eli for 7C: no  # Ben holds a low club that is not 7C
# Neither ask found its card, but in Anna's view they place both: Ben's low club is not 7C and
# not one of hers, so it is 6C; Cara's is not 6C, so it is 7C.
8. Eli asks Anna for 3D: no  # the turn comes to Anna
9. Anna claims low-clubs: Anna 2C 3C 4C 5C, Ben 6C, Cara 7C: correct
