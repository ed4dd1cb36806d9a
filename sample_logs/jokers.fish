Title: Jokers deck, eight players: the ninth book is the eights with both jokers
Rules: literature
Deck: jokers
Teams: Anna Ben Cara Gus vs Dev Eli Fay Hal
Hand Anna: 8S BJ 2S JS 6H 2D JD
Hand Dev: 8H 3S QS 7H 3D QD 6C
Hand Ben: 8C 4S KS 9H 4D KD 7C
Hand Eli: 5S AS 10H 5D AD 9C QC
Hand Cara: 6S 2H JH 6D 2C 10C KC
Hand Fay: 7S 3H QH 7D 3C JC AC
Hand Gus: 8D 9S 4H KH 9D 4C
Hand Hal: RJ 10S 5H AH 10D 5C
X-Deal: 54 cards to 8 players, one at a time from Anna: the first six seats get 7, Gus and Hal 6

1. Anna asks Hal for RJ: yes  # a joker is asked for like any other card of the eights book
2. Anna asks Dev for 8H: yes
3. Anna asks Eli for 8D: no
4. Eli asks Ben for 2S: no
5. Ben asks Fay for 8D: no  # Ben holds an eight that is not 8D
6. Fay asks Gus for 4S: no
7. Gus asks Hal for 8C: no  # Gus holds an eight that is not 8C
8. Hal asks Anna for 9S: no
# Anna holds 8S 8H BJ RJ. Ben's eight is not 8D, so it is 8C; Gus's is not 8C, so it is 8D.
9. Anna claims eights: Anna 8S 8H BJ RJ, Ben 8C, Gus 8D: correct  # nine books in all: this deck cannot end in a tie unless a book is forfeited
