Title: No twos: the low books run from 3 to 8
Rules: literature
Deck: no-2s
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 3S 4S 5S 9S 3H 9H 3D 9D
Hand Dev: 8S 10S 4H 10H 4D 10D 3C 9C
Hand Ben: 6S JS 5H JH 5D JD 4C 10C
Hand Eli: QS 6H QH 6D QD 5C 8C JC
Hand Cara: 7S KS 7H KH 7D KD 6C QC
Hand Fay: AS 8H AH 8D AD 7C KC AC

# The 2s are out of the deck (a 2 in this record is an error); the 8s take their place in the low books.
1. Anna asks Dev for 8S: yes
2. Anna asks Fay for 6S: no
3. Fay asks Ben for KS: no
4. Ben asks Eli for 7S: no  # Ben holds a low spade that is not 7S
5. Eli asks Cara for 3D: no
6. Cara asks Dev for 6S: no  # Cara holds a low spade that is not 6S
7. Dev asks Anna for AH: no
# Anna holds 3S 4S 5S 8S: Ben's low spade can only be 6S and Cara's 7S.
8. Anna claims low-spades: Anna 3S 4S 5S 8S, Ben 6S, Cara 7S: correct
