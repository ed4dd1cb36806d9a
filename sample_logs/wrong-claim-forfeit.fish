Title: A wrong split inside the team: forfeited under literature rules
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2C 3C 4C 2S 2H KH 2D 10D
Hand Dev: 3S 9S 3H 10H AH 3D JD 9C
Hand Ben: 5C 7C 4S 10S 4H 4D KD 10C
Hand Eli: 5S JS 5H JH 5D 9D AD JC
Hand Cara: 6C 6S QS 6H 9H 6D QC KC
Hand Fay: 7S KS AS 7H QH 7D QD AC

1. Anna asks Dev for 5C: no  # Anna holds 2C 3C 4C
2. Dev asks Ben for 9H: no
3. Ben asks Eli for 6C: no  # Ben holds a low club that is not 6C: 5C or 7C in Anna's view
4. Eli asks Cara for JD: no
5. Cara asks Fay for 5C: no  # Cara holds a low club that is not 5C: 6C or 7C in Anna's view
6. Fay asks Anna for 9S: no
# Anna knows Ben and Cara each hold a low club, but not which ones, and the cards could still
# be with opponents: 5C with Eli, 6C with Dev or Fay, 7C with any of them. A claim now is a guess.
7. Anna claims low-clubs: Anna 2C 3C 4C, Ben 5C, Cara 6C 7C: wrong; actual Anna 2C 3C 4C, Ben 5C 7C, Cara 6C  # every card was in the team but 7C was Ben's: the book is forfeited, nobody scores it
8. Anna asks Eli for 3D: no  # a claim does not move the turn: Anna asks next
