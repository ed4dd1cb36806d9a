Title: No sevens, and high books count double
Rules: literature
Deck: no-7s
House: high-double
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2S 3S 9S 10S 2H 9D 2C 9C
Hand Dev: 2D 3D 4D 5D 6D 8H AD AC
Hand Ben: 8D 4S JS 3H 4H 10D 3C 10C
Hand Eli: AH 5S QS 5H JD 4C 5C JC
Hand Cara: 9H 10H JH QH KH AS KD 8C
Hand Fay: 6S 8S KS 6H QD 6C QC KC

# The 7s are out of the deck: the low books are 2 3 4 5 6 8.
1. Cara asks Eli for AH: yes
2. Cara claims high-hearts: Cara 9H 10H JH QH KH AH: correct  # house rule high-double: a high book scores 2
3. Cara asks Dev for QD: no
4. Dev asks Ben for 8D: yes
5. Dev claims low-diamonds: Dev 2D 3D 4D 5D 6D 8D: correct  # a low book scores 1: Cara's team leads 2 to 1
6. Dev asks Anna for 3H: no
