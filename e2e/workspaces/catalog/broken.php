<?php

function total(array $prices {
    return array_sum($prices);
}
