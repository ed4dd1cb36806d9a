Title: A card with an opponent: the other team scores the book
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2C 3C 2S 9S 2H 9H 2D 9D
Hand Dev: 3S 10S 3H 10H 3D 10D 9C 10C
Hand Ben: 4C 5C 4S JS 4H JH 4D JD
Hand Eli: 7C 5S QS 5H QH 5D QD JC
Hand Cara: 6C 6S KS 6H KH 6D KD QC
Hand Fay: 7S AS 7H AH 7D AD KC AC

1. Anna asks Dev for 7C: no  # Anna holds a low club; Dev has no 7C
2. Dev asks Cara for QS: no
3. Cara asks Fay for 7C: no  # Cara holds a low club; Fay has no 7C either
4. Fay asks Anna for JC: no
# Anna holds 2C 3C. 7C is not with Dev or Fay (nor Cara, who asked for it): Ben or Eli has it.
# Anna bets on Ben and guesses the rest of the split.
5. Anna claims low-clubs: Anna 2C 3C, Ben 4C 5C 7C, Cara 6C: wrong; actual Anna 2C 3C, Ben 4C 5C, Cara 6C, Eli 7C  # Eli held 7C: the book goes to Dev, Eli and Fay
6. Anna asks Eli for 10H: no
